// The static site's client script, imported `with { type: "text" }`: its source as a string (site-assets.ts).
declare module "*/site-client.js" {
  const text: string;
  export default text;
}
