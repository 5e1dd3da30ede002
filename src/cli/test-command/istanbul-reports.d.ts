// istanbul's reporters, imported one by one (the package's own `create` loads them by a computed path, which a
// bundle cannot follow). Each is a report visitor class taking its options.
declare module 'istanbul-reports/lib/*/index.js' {
  const Report: new (options?: Record<string, unknown>) => {
    execute(context: unknown): void;
    onStart(root: unknown, context: unknown): void;
  };
  export default Report;
}
