export { TrashScreen } from "./TrashScreen";
