export { PageScreen } from "./PageScreen";
export { NewPageButton } from "./NewPageButton";
export { NewPageScreen } from "./NewPageScreen";
