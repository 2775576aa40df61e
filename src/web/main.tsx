/**
 * The web UI's entry. The theme is set on <html> before anything renders (no inline script is
 * allowed), then the app mounts with its providers once the first view's answers are in
 * (first-view.ts; the page shows its skeleton meanwhile).
 */
import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { queryClient } from "./api/query-client";
import { App } from "./app/App";
import { prefetchFirstView } from "./app/first-view";
import { startTheme } from "./lib/theme";
import "../content/reading-theme.css";
import "./ui/tokens.css";
import "./ui/base.css";

startTheme();

void prefetchFirstView(window.location.pathname).then(() =>
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <App />
      </QueryClientProvider>
    </StrictMode>,
  ),
);
