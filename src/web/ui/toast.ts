// Success is a brief toast (sonner); errors are shown inline, next to where the person acted.
export { toast } from "sonner";
