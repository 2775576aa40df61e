// Scalar's browser bundle has no typings; imported `with { type: "file" }` it is a path (docs.ts).
declare module "*/@scalar/api-reference/dist/browser/standalone.js" {
  const path: string;
  export default path;
}
