/** Whether the people screen is for this account (the account menu links to it then). */
export const seesPeople = (permissions: readonly string[]) => permissions.includes("users.invite") || permissions.includes("groups.manage");
