// The icons of watching and notifications, from lucide (tree-shaken: only these are bundled).
export { Bell, Eye, CheckCheck } from "lucide-react";
