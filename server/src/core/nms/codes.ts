// Every code the NMS checks emit, with its severity and what it rests on (docs/nms.md lists the
// same, held equal by a test). Errors only where the DFC or HailoRT is known to refuse.
export interface NmsCode {
  severity: string;
  evidence: string;
}

export const NMS_CODES: Record<string, NmsCode> = {
  'nms/layer-not-in-hn': { severity: 'error', evidence: 'DFC: "The layer named conv84 doesn\'t exist in the HN" (Hailo-Application-Code-Examples#260)' },
  'nms/pair-shape': {
    severity: 'error (yolov8, yolox, ssd); warning otherwise',
    evidence: 'HailoRT validate_params: "regression input … has different shape than classification input"',
  },
  'nms/reg-channels': {
    severity: 'error (yolov8, not a multiple of 4); warning otherwise',
    evidence: 'HailoRT Yolov8OpMetadata::validate_params: "regression input … is not a multiple of 4"',
  },
  'nms/anchors-count': {
    severity: 'error (yolov5); warning otherwise',
    evidence: 'HailoRT hef.cpp create_yolov5_config: "YOLOv5 height anchors count … doesn\'t mach the width anchors count" (HAILO_INVALID_HEF)',
  },
  'nms/bbox-only-unsupported': { severity: 'error', evidence: 'HailoRT YOLOX/SSD/YOLOv5-seg ops: "bbox_only is not supported"' },
  'nms/classes': {
    severity: 'warning',
    evidence: 'the head layout of every zoo config (cls channels = classes; YOLOv5 anchors × (5 + classes); SSD anchors × classes); MZ#94, MZ#64, ACE#245',
  },
  'nms/regression-length': {
    severity: 'warning',
    evidence: 'zoo YOLOv8 configs: regression_length 16 with 64-channel reg heads; HailoRT decodes 4 × regression_length bins',
  },
  'nms/objectness-channels': { severity: 'warning', evidence: 'zoo YOLOX configs: 1-channel objectness heads' },
  'nms/stride': { severity: 'warning', evidence: "zoo configs: stride = input height ÷ the head's height (8/16/32 at 640)" },
  'nms/image-dims': { severity: 'warning', evidence: 'zoo configs: image_dims = the network input [height, width]' },
  'nms/detection-heads': { severity: 'warning', evidence: 'zoo YOLOX/YOLOv6/NanoDet configs: number_of_detection_heads = the decoders listed' },
  'nms/meta-arch': { severity: 'warning', evidence: 'all 632 zoo script/config pairs: each meta_arch with one decoder layout' },
  'nms/meta-arch-dfc': {
    severity: 'warning',
    evidence: 'zoo scripts use meta_arch=yolov8 from v2.10 (DFC 3.26.0); older DFCs: "\'yolov8\' is not a valid NMSMetaArchitectures" (MZ#86)',
  },
  'nms/inline-differs': {
    severity: 'warning',
    evidence: 'which of the two the DFC takes is not documented; the zoo never passes both (main_utils.py _handle_classes_argument)',
  },
  'nms/hef-no-nms': { severity: 'warning', evidence: 'ACE#245: an app sized for NMS output read a raw 80×80×64 head ("buffer pool size = 409600")' },
  'nms/hef-kind': { severity: 'warning', evidence: 'hef.proto: one NMS op kind per meta_arch' },
  'nms/hef-engine': { severity: 'warning', evidence: 'engine=cpu → a net-flow NMS op; engine=nn_core → HAILO_NMS_ON_CHIP outputs' },
  'nms/hef-differs': { severity: 'warning', evidence: 'hef.proto ProtoHEFNmsOp: the config values compiled into the HEF' },
  'nms/hef-output': {
    severity: 'warning',
    evidence:
      'HailoRT hef.cpp create_yolov5/yolov8_bbox_only_op_metadata: bbox_decoding_only gives NHWC {1, proposals, 4 or 5 + classes} FLOAT32, not HAILO_NMS_BY_CLASS',
  },
  'nms/app-output': {
    severity: 'warning',
    evidence: 'hailo-apps yolo_hailortpp.cpp filter: the output whose name matches "nms_postprocess", decoded as HAILO_NMS_BY_CLASS FLOAT32',
  },
  'nms/labels-count': { severity: 'warning', evidence: 'hailo-apps hailo_nms_decode.hpp: class i is labels[i + 1] ("unlabeled" first); rpi5#173' },
  'nms/labels-uint8': { severity: 'warning', evidence: 'hailo-apps yolo_hailortpp.cpp: labels in a std::map<uint8_t, std::string> (MZ#160: 1011 classes)' },
  'nms/config-mismatch': {
    severity: "the worst of the config's findings",
    evidence: "the summary of the config's findings on the script's nms_postprocess line",
  },
  'nms/schema': { severity: 'warning', evidence: "schemas/nms-config.schema.json, for a config named by a script that VS Code's jsonValidation patterns miss" },
};
