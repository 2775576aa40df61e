import type { ReactNode } from "react";
import { Brand } from "../../app/Brand";
import { useInstance } from "../../app/session";
import "./auth.css";
import { useTitle } from "../../lib/title";

/** The centred card of the screens before one is signed in. */
export function AuthLayout({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  const instance = useInstance();
  const branding = instance.data?.branding;
  // Branding's sign-in arrangement: one centred card, or the brand in a panel beside it.
  const split = branding?.signInArrangement === "split";
  useTitle(title);
  return (
    <main id="main" className={split ? "auth-page auth-split" : "auth-page"}>
      {split ? (
        <div className="auth-aside">
          <Brand branding={branding} size="lg" />
        </div>
      ) : null}
      <div className="auth-card">
        {split ? null : (
          <p className="auth-brand">
            <Brand branding={branding} size="lg" />
          </p>
        )}
        <h1>{title}</h1>
        {intro ? <p className="auth-intro">{intro}</p> : null}
        {children}
      </div>
    </main>
  );
}
