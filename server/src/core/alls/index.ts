// The `.alls` language core: pure functions over a script's text (no editor, no I/O). The LSP
// adapter (lsp/allsService.ts) and the CLI (cli/check.ts) are its only callers.
export { analyze, type AllsDocument } from './analysis';
export { checkDocument, checkText, type CheckOptions } from './rules';
export { complete, type FeatureOptions } from './completion';
export { hover, definition } from './navigation';
export { signatureHelp } from './signature';
export { documentSymbols, foldingRanges, semanticTokens, codeActions } from './outline';
export { RULES, type AllsCode } from './codes';
export type * from './featureTypes';
