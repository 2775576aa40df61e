/** The wiki's name and public address (baseUrl), through PUT /api/admin/settings. */
import { useState } from "react";
import { ApiError } from "../../api/client";
import { keys } from "../../api/keys";
import { queryClient } from "../../api/query-client";
import { Loading } from "../../app/Loading";
import { TextField } from "../../ui/Field";
import { useAuthForm } from "../../lib/useAuthForm";
import { saveSettings, useSettings, type LooseSettings } from "./queries";
import { StepForm, useWizard } from "./wizard";
import { settingField } from "../../../common/settings/form";

const INSTANCE_NAME_MAX = settingField("instanceName").maxLength;

export function InstanceStep() {
  const settings = useSettings();
  if (settings.isPending) return <Loading />;
  if (settings.isError)
    return (
      <p className="form-error" role="alert">
        The settings could not be loaded: {settings.error.message}. Reload the page to try again.
      </p>
    );
  return <InstanceForm settings={settings.data} />;
}

function InstanceForm({ settings }: { settings: LooseSettings }) {
  const wizard = useWizard();
  const form = useAuthForm();
  const [name, setName] = useState(settings.instanceName);
  const hasBaseUrl = typeof settings.baseUrl === "string";
  const [baseUrl, setBaseUrl] = useState(hasBaseUrl ? (settings.baseUrl as string) : "");
  const onContinue = async () => {
    await saveSettings(settings, { instanceName: name.trim(), ...(hasBaseUrl ? { baseUrl: baseUrl.trim() } : {}) });
    await queryClient.invalidateQueries({ queryKey: keys.instance });
    try {
      await wizard.advance(false);
    } catch (err) {
      // Keeping the default name is a choice too: the step is then recorded as skipped.
      if (err instanceof ApiError && err.status === 409 && err.body.step === "instance") await wizard.advance(true);
      else throw err;
    }
  };
  return (
    <StepForm
      form={form}
      onContinue={onContinue}
      intro={<p>The name appears in the browser tab, on the sign-in screen and in e-mails. Most teams use their organisation's name.</p>}
    >
      <TextField
        label="Wiki name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={form.fieldError("instanceName")}
        required
        maxLength={INSTANCE_NAME_MAX}
        autoFocus
        placeholder="Acme Wiki"
      />
      {hasBaseUrl ? (
        <TextField
          label="Public address"
          type="url"
          value={baseUrl}
          onChange={(e) => setBaseUrl(e.target.value)}
          error={form.fieldError("baseUrl")}
          placeholder={window.location.origin}
          hint="The address people open Cairn at, used in links sent by e-mail. Leave it empty to use the address of each request."
        />
      ) : null}
    </StepForm>
  );
}
