// Vite's `?raw` imports (a file's text), as the tests use them.
declare module "*.md?raw" {
	const text: string;
	export default text;
}
