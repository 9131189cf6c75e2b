import type { ReactNode } from "react";
import { Field } from "#app/components/ui/field.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { cn } from "#app/lib/cn.ts";
import type { EditorField, EditorValues } from "../post-form.ts";

// The editor's plain boxes, each a labelled Field bound to the editor's values, with its limit and,
// where search engines cut text short, a counter against it.

type Options = {
  label: string;
  hint?: ReactNode;
  max: number;
  /** Show "42 / 70" under the box. */
  counter?: boolean;
};

function Counter({ id, length, max }: { id: string; length: number; max: number }) {
  const over = length > max;
  return (
    <span
      id={id}
      className={cn(
        "block text-right text-xs tabular-nums",
        over ? "font-semibold text-danger" : "text-ink-muted",
      )}
    >
      {length} / {max}
      <span className="sr-only"> characters{over ? ", too long" : ""}</span>
    </span>
  );
}

export function formFields(
  values: EditorValues,
  update: (change: Partial<EditorValues>) => void,
  errors: Partial<Record<string, string>>,
) {
  // The counter sits under the box and is read with it.
  const counted = (name: EditorField, options: Options, control: { "aria-describedby"?: string }) =>
    options.counter
      ? {
          "aria-describedby": [control["aria-describedby"], `${name}-count`].filter(Boolean).join(" "),
        }
      : {};
  const counter = (name: EditorField, options: Options) =>
    options.counter ? <Counter id={`${name}-count`} length={values[name].length} max={options.max} /> : null;
  return {
    input(name: EditorField, options: Options & { list?: string; type?: string }) {
      return (
        <Field id={name} name={name} label={options.label} hint={options.hint} error={errors[name]}>
          {(control) => (
            <>
              <Input
                {...control}
                {...counted(name, options, control)}
                type={options.type ?? "text"}
                list={options.list}
                value={values[name]}
                // A counted field may be typed past its limit: the counter and the server say so.
                maxLength={options.counter ? undefined : options.max}
                onChange={(event) => update({ [name]: event.currentTarget.value })}
              />
              {counter(name, options)}
            </>
          )}
        </Field>
      );
    },
    textarea(name: EditorField, options: Options & { rows?: number }) {
      return (
        <Field id={name} name={name} label={options.label} hint={options.hint} error={errors[name]}>
          {(control) => (
            <>
              <Textarea
                {...control}
                {...counted(name, options, control)}
                rows={options.rows ?? 3}
                value={values[name]}
                maxLength={options.counter ? undefined : options.max}
                onChange={(event) => update({ [name]: event.currentTarget.value })}
                className="field-sizing-content"
              />
              {counter(name, options)}
            </>
          )}
        </Field>
      );
    },
  };
}
