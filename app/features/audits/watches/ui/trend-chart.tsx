// A small line chart of one number over a watch's runs, drawn as inline SVG on the server (no
// script, no library). It is an image with a name and a description for assistive technology; the
// exact numbers are in the trend table beside it, which is what a screen reader user reads.

export type TrendPoint = { at: string; value: number | null };

// NOTE: the drawing scales to its box, text with it: a narrow view box keeps the labels readable on
// a phone (400 units across ~300 px).
const WIDTH = 400;
const HEIGHT = 150;
const PAD = { top: 12, right: 10, bottom: 26, left: 44 };

export function TrendChart({
  id,
  title,
  points,
  format,
  min,
  max,
  ticks,
}: {
  id: string;
  title: string;
  /** Oldest first. */
  points: readonly TrendPoint[];
  format: (value: number) => string;
  min?: number;
  max?: number;
  /** Labels on the vertical axis (value → text); the extremes by default. */
  ticks?: readonly { value: number; label: string }[];
}) {
  const measured = points.filter((point): point is { at: string; value: number } => point.value !== null);
  const values = measured.map((point) => point.value);
  const low = min ?? Math.min(...values, 0);
  const high = Math.max(max ?? Math.max(...values, 1), low + 1e-9);
  const innerWidth = WIDTH - PAD.left - PAD.right;
  const innerHeight = HEIGHT - PAD.top - PAD.bottom;
  const x = (index: number) =>
    PAD.left + (points.length <= 1 ? innerWidth / 2 : (index / (points.length - 1)) * innerWidth);
  const y = (value: number) => PAD.top + innerHeight - ((value - low) / (high - low)) * innerHeight;
  const coordinates = points
    .map((point, index) =>
      point.value === null ? null : `${x(index).toFixed(1)},${y(point.value).toFixed(1)}`,
    )
    .filter(Boolean);
  const latest = measured.at(-1);
  const first = measured[0];
  const description =
    measured.length === 0
      ? "No values yet."
      : `${measured.length} measured run${measured.length === 1 ? "" : "s"}, from ${format(first?.value ?? 0)} to ${format(
          latest?.value ?? 0,
        )} (latest). The numbers are in the trend table.`;
  const axisTicks = ticks ?? [
    { value: low, label: format(low) },
    { value: high, label: format(high) },
  ];
  return (
    <figure className="grid gap-2 rounded-lg border border-line p-4">
      <figcaption id={`${id}-title`} className="font-semibold">
        {title}
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-name ${id}-desc`}
        className="h-auto w-full"
      >
        <title id={`${id}-name`}>{title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        {axisTicks.map((tick) => (
          <g key={tick.value}>
            <line
              x1={PAD.left}
              x2={WIDTH - PAD.right}
              y1={y(tick.value)}
              y2={y(tick.value)}
              stroke="currentColor"
              className="text-line"
              strokeWidth="1"
            />
            <text
              x={PAD.left - 6}
              y={y(tick.value) + 4}
              textAnchor="end"
              fontSize="13"
              fill="currentColor"
              className="text-ink-muted"
            >
              {tick.label}
            </text>
          </g>
        ))}
        {coordinates.length > 1 ? (
          <polyline
            points={coordinates.join(" ")}
            fill="none"
            stroke="currentColor"
            strokeWidth="2.5"
            className="text-brand"
          />
        ) : null}
        {points.map((point, index) =>
          point.value === null ? null : (
            <circle
              // biome-ignore lint/suspicious/noArrayIndexKey: one point per run, in order
              key={index}
              cx={x(index)}
              cy={y(point.value)}
              r="4"
              fill="currentColor"
              className="text-brand"
            />
          ),
        )}
        {first ? (
          <text x={PAD.left} y={HEIGHT - 6} fontSize="13" fill="currentColor" className="text-ink-muted">
            {points[0]?.at}
          </text>
        ) : null}
        {points.length > 1 ? (
          <text
            x={WIDTH - PAD.right}
            y={HEIGHT - 6}
            textAnchor="end"
            fontSize="13"
            fill="currentColor"
            className="text-ink-muted"
          >
            {points.at(-1)?.at}
          </text>
        ) : null}
      </svg>
      {latest ? (
        <p className="text-sm text-ink-muted">
          Latest: <strong className="text-ink">{format(latest.value)}</strong>
        </p>
      ) : (
        <p className="text-sm text-ink-muted">No values yet.</p>
      )}
    </figure>
  );
}
