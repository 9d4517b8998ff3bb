// Which JSON files are NMS configs by name: the patterns package.json's `jsonValidation` gives VS
// Code's JSON language (a test holds the two equal). A config with another name is still one when
// an `.alls` names it in `nms_postprocess` (the language server then validates it itself). Pure.

/** package.json `contributes.jsonValidation[0].fileMatch`. */
export const NMS_CONFIG_FILE_MATCH = ['*_nms_config.json', '*nms_config*.json', '*_nms_postprocess_config.json', '**/postprocess_config/*.json'] as const;

export function isNmsConfigName(path: string): boolean {
  const parts = path.split(/[\\/]/);
  const name = parts[parts.length - 1];
  if (!name.toLowerCase().endsWith('.json')) return false;
  return (
    name.endsWith('_nms_config.json') ||
    name.includes('nms_config') ||
    name.endsWith('_nms_postprocess_config.json') ||
    parts[parts.length - 2] === 'postprocess_config'
  );
}
