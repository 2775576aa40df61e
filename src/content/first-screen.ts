/**
 * About a screen of a document: its first blocks up to about FIRST_SCREEN_CHARS of text, or the
 * document itself when it is short. A cold page view paints this much first, both in the page the
 * server writes (http/ui-frame.ts) and in the app's first render (the web's DocumentView), so
 * that the app's first render draws exactly the blocks the server's page showed.
 */
export const FIRST_SCREEN_CHARS = 4_000;

interface Block {
  text?: string;
  content?: unknown[];
}

const textOf = (node: Block): number => (node.text?.length ?? 0) + (node.content ?? []).reduce<number>((n, c) => n + textOf(c as Block), 0);

export function firstScreenOf<Doc extends object>(doc: Doc): Doc {
  const blocks = (doc as { content?: unknown[] }).content ?? [];
  let chars = 0;
  for (let i = 0; i < blocks.length; i++) {
    chars += textOf(blocks[i] as Block) + 40;
    if (chars > FIRST_SCREEN_CHARS) return { ...doc, content: blocks.slice(0, i + 1) };
  }
  return doc;
}
