/** People named in a sentence: "Ada, Grace and you" (yourself last, as "you"). */
export function peopleList(people: Array<{ id: string; name: string }>, meId: string | undefined): string {
  const others = people.filter((p) => p.id !== meId).map((p) => p.name);
  const names = people.some((p) => p.id === meId) ? [...others, "you"] : others;
  return new Intl.ListFormat("en-GB", { type: "conjunction" }).format(names);
}
