export { PageTree } from "./PageTree";
export { useTree, ancestorsOf } from "./queries";
