// Migrations are embedded as text (`import sql from "….sql" with { type: "text" }`).
declare module "*.sql" {
  const text: string;
  export default text;
}
