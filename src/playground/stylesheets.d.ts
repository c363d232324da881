// Stylesheets imported for esbuild to bundle beside the script (uPlot's, by the monitor).
declare module "*.css";
