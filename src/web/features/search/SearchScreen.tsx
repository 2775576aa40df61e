// TEMPORARY scaffold, replaced by the search feature.
export function SearchScreen() {
  return <main id="main" className="main-column"><h1>Search</h1></main>;
}
