export { SearchLauncher } from "./SearchLauncher";
export { SearchScreen } from "./SearchScreen";
