// The types of errors-doc.mjs, for the test that imports it.
export declare const DOC: URL;
export declare function errorCodesTable<C extends string>(
  codes: Readonly<Record<C, { readonly error: string; readonly means: string }>>,
  statusOf: (code: C) => number,
): string;
export declare function withTable(page: string, table: string): string;
