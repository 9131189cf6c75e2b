import { Form } from "react-router";
import { SectionCard } from "#app/components/back-office/section-card.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { usePendingIntent } from "#app/lib/use-pending-intent.ts";
import { API_KEYS_PATH } from "../api-key-paths.ts";

/** Names and makes a key (`intent=create`); after a refusal it keeps the name, after a key it starts empty. */
export function CreateApiKeyForm({ defaultName, created }: { defaultName: string; created: boolean }) {
  const creating = usePendingIntent("create");
  return (
    <SectionCard id="create-heading" title="Create a key">
      <Form method="post" action={API_KEYS_PATH} className="mt-4 flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="create" />
        <div className="grid min-w-64 flex-1 gap-1.5 sm:max-w-md">
          <label htmlFor="key-name" className="font-semibold">
            Name
          </label>
          <Input
            id="key-name"
            name="name"
            required
            minLength={2}
            maxLength={60}
            placeholder="e.g. HubSpot sync"
            defaultValue={defaultName}
            key={created ? "created" : "draft"}
          />
        </div>
        <Button type="submit" disabled={creating}>
          {creating ? "Creating..." : "Create key"}
        </Button>
      </Form>
    </SectionCard>
  );
}
