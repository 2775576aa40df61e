/** "Verify the chain": the server checks every entry's hash link and says where it broke, if anywhere. */
import { useState } from "react";
import { useAction } from "../../lib/mutation";
import { Button } from "../../ui/Button";
import { FormError } from "../../ui/Field";
import { Card } from "../../ui/SectionsFrame";
import { useVerifyChainMutation, type Verification } from "./queries";

export function VerifyChain() {
  const [result, setResult] = useState<Verification | null>(null);
  const verification = useAction(useVerifyChainMutation(), { done: setResult });
  const { busy, error } = verification;
  const verify = () => verification.run();
  return (
    <Card
      id="audit-verify"
      title="Is the log intact?"
      intro="Each entry carries a hash of the one before it, so an entry changed or removed afterwards breaks the chain."
      action={
        <Button variant="primary" size="sm" onClick={() => void verify()} busy={busy}>
          Verify the chain
        </Button>
      }
    >
      <div aria-live="polite">
        {busy ? <p className="muted">Checking every entry…</p> : null}
        {result && !busy ? (
          result.ok ? (
            <p>
              <span className="pane-ok">The chain is intact.</span> All {result.checked} entries check out. Keep the last link outside Cairn
              to notice a rewritten tail later: entry {result.lastSequence}, hash{" "}
              <code style={{ overflowWrap: "anywhere" }}>{result.lastHash}</code>.
            </p>
          ) : (
            <p>
              <span className="pane-bad">The chain is broken at entry {result.brokenAtSequence}.</span>{" "}
              {`${result.problem} ${result.checked} entries before it check out.`}
            </p>
          )
        ) : null}
        <FormError error={error} />
      </div>
    </Card>
  );
}
