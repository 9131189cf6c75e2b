import { Form, useNavigation } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { API_KEYS_PATH } from "../api-key-paths.ts";

/** Names and makes a key (`intent=create`); after a refusal it keeps the name, after a key it starts empty. */
export function CreateApiKeyForm({ defaultName, created }: { defaultName: string; created: boolean }) {
  const navigation = useNavigation();
  const creating = navigation.state === "submitting" && navigation.formData?.get("intent") === "create";
  return (
    <section
      aria-labelledby="create-heading"
      className="rounded-xl border border-line bg-white p-6 shadow-sm"
    >
      <h2 id="create-heading" className="text-xl font-semibold">
        Create a key
      </h2>
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
    </section>
  );
}
