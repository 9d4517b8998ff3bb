// The `vscode` module for a bundle loaded outside VS Code (client/src's dist/client.js in a test).

/**
 * A stand-in for the `vscode` module: every member exists and does nothing; registrations are
 * recorded. The bundle copies the module's own properties (esbuild's import interop), so the top
 * level has one for every `.name` the bundle uses.
 */
export function fakeVscode(registered: string[], names: Iterable<string>): Record<string, unknown> {
  // What a call returns is also a settled promise (the language client awaits window messages).
  const anything = (name: string, returned = false): unknown =>
    new Proxy(function () {}, {
      get(_t, prop) {
        if (prop === 'then') return returned ? (done: (v: unknown) => unknown) => done(undefined) : undefined;
        if (prop === Symbol.toPrimitive) return () => name;
        if (prop === Symbol.iterator) return function* () {};
        if (name === 'vscode.commands' && prop === 'registerCommand')
          return (id: string) => {
            registered.push(id);
            return { dispose() {} };
          };
        return anything(`${name}.${String(prop)}`);
      },
      set: () => true,
      apply: () => anything(`${name}()`, true),
      construct: () => anything(`new ${name}`) as object,
    });
  const top: Record<string, unknown> = {};
  for (const n of names) Object.defineProperty(top, n, { get: () => anything(`vscode.${n}`), enumerable: true, configurable: true });
  // vscode-languageclient checks the host's version when constructed.
  Object.defineProperty(top, 'version', { value: '1.100.3', enumerable: true });
  return top;
}
