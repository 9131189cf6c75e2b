import { useNavigation } from "react-router";

/** True while this page's form with `intent` is being posted (its button says so and waits). */
export function usePendingIntent(intent: string): boolean {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}
