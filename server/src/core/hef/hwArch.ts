// The architecture a HEF was compiled for, without reading the whole file: the container header,
// then the first bytes of the protobuf body — `ProtoHEFHef.header` is field 1, written first — are
// enough for `header.hw_arch`. Used to infer the target of a `.alls` script beside the HEF
// (server/src/core/har/scriptArch.ts); an LLM HEF's body can be hundreds of MB, its header is ~100 bytes.
import { limit } from '../common/limits';
import { MAX_HEADER_SIZE, parseContainer, protoComplete } from './container';
import { headerInfo } from './facts';
import type { HefProblem } from './problems';
import { decodeLenient } from './protoDecode';
import { hefType } from './schema';
import type { ByteSource } from './source';

/** `{ id }` = the header's hw_arch; `{ error }` = one sentence saying why it could not be read. */
export async function readHefHwArch(src: ByteSource): Promise<{ id: number } | { error: string }> {
  const head = await src.read(0, MAX_HEADER_SIZE);
  const { container, problems } = parseContainer(head, src.size);
  if (!container) return { error: problems[0]?.message ?? 'not a HEF' };
  const length = Math.min(container.protoEnd - container.protoStart, limit('hefArchPrefixBytes'));
  if (length <= 0) return { error: 'it has no protobuf body' };
  const body = await src.read(container.protoStart, length);
  const cut = body.length < container.protoSize || !protoComplete(container);
  const ignored: HefProblem[] = [];
  const { message } = decodeLenient(hefType('Hef', true), body, container.protoStart, 'ProtoHEFHef', ignored, cut);
  const header = headerInfo(message);
  return header ? { id: header.hwArch.id } : { error: `no header in the first ${body.length.toLocaleString('en-US')} bytes of its protobuf body` };
}
