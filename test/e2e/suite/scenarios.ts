// Every in-host scenario, in the order they run. Add new `*.e2e.ts` files here.
import './activation.e2e';
import './trust.e2e';
import './onnx.e2e';
import './alls.e2e';
import './hef.e2e';
import './nms.e2e';
import './dfc.e2e';
import './compile.e2e';
import './bisect.e2e';
import './setup.e2e';
