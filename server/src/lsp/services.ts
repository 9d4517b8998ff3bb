// Registry of language services the server routes to. Add a service here, nowhere else.
import type { AttachableService } from './service';
import { createHefService } from './hefService';
import { OnnxGraphService } from './onnxService';
import { createAllsService } from './allsService';
import { createNmsService } from './nmsService';

export function createServices(): AttachableService[] {
  return [createAllsService(), createHefService(), new OnnxGraphService(), createNmsService()];
}
