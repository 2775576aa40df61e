/** "Import" beside "Create space" on the home screen; the dialog and its code load when first opened. */
import { lazy, Suspense, useState } from "react";
import { Button } from "../../ui/Button";
import { Upload } from "../../ui/icons";

const ImportSpaceDialog = lazy(() => import("./ImportSpaceDialog"));

export function ImportSpaceButton() {
  const [open, setOpen] = useState(false);
  // Kept mounted after the first opening, so the dialog can close with its animation and reopen at once.
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button onClick={() => (setOpened(true), setOpen(true))}>
        <Upload size={16} aria-hidden="true" /> Import
      </Button>
      {opened ? (
        <Suspense fallback={null}>
          <ImportSpaceDialog open={open} onOpenChange={setOpen} />
        </Suspense>
      ) : null}
    </>
  );
}
