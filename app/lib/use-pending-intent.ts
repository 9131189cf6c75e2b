import { useNavigation } from "react-router";

/** True while a form of this page posting `intent` is on its way (its button says so and waits). */
export function usePendingIntent(intent: string): boolean {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}
