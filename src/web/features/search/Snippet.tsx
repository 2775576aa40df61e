/** A search snippet: the server wraps matched words in **…**; they become <mark>, never markup. */
export function Snippet({ text }: { text: string }) {
  const parts = text.split("**");
  return (
    <>
      {parts.map((part, i) => (i % 2 === 1 ? <mark key={i}>{part}</mark> : <span key={i}>{part}</span>))}
    </>
  );
}
