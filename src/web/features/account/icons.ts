// The account menu's links to the account screen and the admin area, from lucide (tree-shaken).
export { UserRound, Settings2 } from "lucide-react";
