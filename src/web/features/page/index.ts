export { PageScreen } from "./PageScreen";
export { NewPageButton } from "./NewPageButton";
