// CSS imported from modules is bundled by Bun.build into the page's stylesheet.
declare module "*.css";
