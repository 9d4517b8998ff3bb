// Registry of language services the server routes to. Add a service here, nowhere else.
import type { AttachableService } from './service';

export function createServices(): AttachableService[] {
  return [];
}
