import { AuthLayout } from "./AuthLayout";
import { RegisterForm } from "./RegisterForm";

/** First run: the instance has no owner yet; the first account becomes it. Never shown again; the setup wizard follows. */
export function SetupScreen() {
  return (
    <AuthLayout title="Welcome to Cairn" intro="Create the owner account. The owner can invite people, create spaces and change every setting.">
      <RegisterForm submitLabel="Create the owner account" then="/welcome" />
    </AuthLayout>
  );
}
