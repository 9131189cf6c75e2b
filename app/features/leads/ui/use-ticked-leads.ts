import { useEffect, useState } from "react";
import { useLocation } from "react-router";

/** The leads ticked on this page of the list (with JavaScript), shared by the table and the bulk bar. */
export function useTickedLeads() {
  const { search } = useLocation();
  const [ticked, setTicked] = useState<number[]>([]);
  // A new page of leads: nothing ticked on it yet.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the URL changing is the trigger
  useEffect(() => setTicked([]), [search]);
  const toggle = (id: number, on: boolean) =>
    setTicked((current) => (on ? [...new Set([...current, id])] : current.filter((other) => other !== id)));
  return { ticked, setTicked, toggle };
}
