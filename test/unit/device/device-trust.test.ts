// The device client is the gate to native code: it refuses to exist without a TrustToken.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DeviceClient, DeviceRequestError } from '../../../server/src/processes/device/client';
import { commandLineTrust } from '../../../server/src/core/common/trust';

test('DeviceClient refuses to start without a TrustToken', () => {
  for (const bad of [undefined, {}, { action: '' }, { action: 3 }]) {
    assert.throws(
      () => new DeviceClient({ trust: bad } as never),
      (err: unknown) => err instanceof DeviceRequestError && err.error.kind === 'untrusted' && /trusted workspace/.test(err.error.sentence),
    );
  }
  const client = new DeviceClient({ trust: commandLineTrust('devices') });
  client.dispose();
});
