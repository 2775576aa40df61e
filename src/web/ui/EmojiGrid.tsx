/** A grid of common emoji to pick from (no emoji database to download). */
export const COMMON_EMOJI =
  "📄 📘 📗 📕 📝 📌 📎 📊 📈 🗂️ 🗓️ 🧭 🚀 🛠️ ⚙️ 🔧 🧪 🧩 💡 🎯 ✅ ⚠️ ❗ ❓ 🔒 🔑 🌱 🌍 🏠 🏗️ 👋 🤝 🎉 ⭐ 🔥 💬 📣 🐛 🧹 📦".split(" ");

export function EmojiGrid({
  onPick,
  wrap,
}: {
  onPick(emoji: string): void;
  wrap?(button: React.ReactElement, emoji: string): React.ReactNode;
}) {
  return (
    <div className="emoji-grid" role="group" aria-label="Emoji">
      {COMMON_EMOJI.map((e) => {
        const button = (
          <button key={e} type="button" className="emoji-cell" aria-label={e} onClick={() => onPick(e)}>
            {e}
          </button>
        );
        return wrap ? <span key={e}>{wrap(button, e)}</span> : button;
      })}
    </div>
  );
}
