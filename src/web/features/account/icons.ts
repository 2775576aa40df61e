// The account menu's links to the account, people and audit screens, from lucide (tree-shaken).
export { UserRound, Users, ScrollText } from "lucide-react";
