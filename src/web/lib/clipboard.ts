import { toast } from "../ui/toast";

/** Copies a value, saying so in a toast. */
export async function copyText(value: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(value);
    toast.success(`${what} copied`);
  } catch {
    toast.error(`Could not copy: select the ${what.toLowerCase()} and copy it yourself`);
  }
}
