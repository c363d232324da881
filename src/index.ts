export default { async fetch() { return Response.json({ status: "ok" }); } } satisfies ExportedHandler<Env>;
