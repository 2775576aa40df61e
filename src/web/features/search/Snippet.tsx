/** A search snippet: the server wraps matched words in **…**; they become <mark>, never markup. */
export function Snippet({ text }: { text: string }) {
  const parts = text.split("**");
  return <>{parts.map((part, i) => (i % 2 === 1 ? <mark key={i}>{part}</mark> : <span key={i}>{part}</span>))}</>;
}

/** A title with the words a near-spelling match found (hit.spelledAs) marked, as the snippet marks them. */
export function MarkedTitle({ title, words }: { title: string; words?: string }) {
  const wanted = new Set((words ?? "").toLowerCase().split(/\s+/).filter(Boolean));
  if (wanted.size === 0) return <>{title}</>;
  return (
    <>
      {title
        .split(/(\p{L}+)/u)
        .map((part, i) => (wanted.has(part.toLowerCase()) ? <mark key={i}>{part}</mark> : <span key={i}>{part}</span>))}
    </>
  );
}
