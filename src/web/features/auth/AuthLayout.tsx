import type { ReactNode } from "react";
import { useInstance } from "../../app/session";
import "./auth.css";
import { useTitle } from "../../lib/title";

/** The centred card of the screens before one is signed in. */
export function AuthLayout({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  const instance = useInstance();
  useTitle(title);
  return (
    <main id="main" className="auth-page">
      <div className="auth-card">
        <p className="auth-brand">
          <span className="brand-mark" aria-hidden="true">
            ◆
          </span>{" "}
          {instance.data?.name ?? "Cairn"}
        </p>
        <h1>{title}</h1>
        {intro ? <p className="auth-intro">{intro}</p> : null}
        {children}
      </div>
    </main>
  );
}
