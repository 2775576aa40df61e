/**
 * Someone's avatar where only their id and name are at hand (a comment's author): their picture
 * and chosen colour come from the directory (GET /api/users, fetched once a minute at most and
 * shared with the other screens that list people). Decorative: the name beside it is what is
 * read out. Visitors who are not signed in cannot read the directory and get the initials.
 */
import { useQuery } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";
import { useMe } from "../../app/session";
import { Avatar, avatarColor } from "../../ui/Avatar";

export function PersonAvatar({ id, name, size = 24 }: { id: string; name: string; size?: number }) {
  const me = useMe();
  const directory = useQuery({ queryKey: keys.users, queryFn: () => data(api.GET("/api/users")), staleTime: 60_000, enabled: !!me.data });
  const person = directory.data?.find((u) => u.id === id);
  return (
    <span aria-hidden="true" style={{ display: "inline-flex", alignSelf: "center", verticalAlign: "middle" }}>
      <Avatar name={name} color={avatarColor(id, person?.avatarVariant)} src={person?.avatarUrl} size={size} />
    </span>
  );
}
