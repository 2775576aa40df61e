import { useInstance } from "../../app/session";
import { AuthLayout } from "./AuthLayout";
import { RegisterForm } from "./RegisterForm";

/** First run: the instance has no owner yet; the first account becomes it. Never shown again; the setup wizard follows. */
export function SetupScreen() {
  // Reachable from other machines: the owner form asks for the code from the server's log.
  const askSetupCode = useInstance().data?.setupCodeRequired ?? false;
  return (
    <AuthLayout
      title="Welcome to Cairn"
      intro="Create the owner account. The owner can invite people, create spaces and change every setting."
    >
      <RegisterForm submitLabel="Create the owner account" then="/welcome" askSetupCode={askSetupCode} />
    </AuthLayout>
  );
}
