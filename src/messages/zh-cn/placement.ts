import type { AreaCatalog } from "../catalog.ts";
import type { placement as en } from "../en/placement.ts";

export const placement: AreaCatalog<typeof en> = {
  "placement.price":
    "显存至少 {floor} GiB 的空闲 GPU 中最便宜的 {count} 块：每 GPU 小时 {price, number, moneyCents}，合计每小时 {total, number, moneyCents}。",
  "placement.unpriced":
    "显存至少 {floor} GiB 的空闲 GPU 中最便宜的 {count} 块；其中有的没有价格（请在主机设置 hosts 下设置 cost_per_hour 或 purchase_price）。",
  "placement.short":
    "显存至少 {floor} GiB 的 {fitting} 块 GPU 中现在只有 {free} 块空闲；你要的是 {count} 块。",
  "placement.valley.granted":
    "谷时（{window}）的批处理任务：归你到 {end, date, time} 谷时结束为止。电价 {valley, number, moneyCents}/kWh 而不是 {base, number, moneyCents}/kWh，每小时节省 {saved, number, moneyCents}。",
  "placement.valley.outside":
    "批处理任务（`--valley`）只在谷时（{window}）分配，下一次从 {start, date, weekday} {start, date, time} 开始：届时再认领。谷时电价 {valley, number, moneyCents}/kWh，平时 {base, number, moneyCents}/kWh。",
  "placement.valley.none":
    "电价中没有比基础价格更便宜的时段（成本设置 costs.electricity.windows），因此无法分配 --valley 任务。",
  "placement.cuda.host": "{host}，全部 GPU：{line}",
  "placement.cuda.mig": "{host}，MIG 实例：{line}",
  "placement.cuda.hostUnknown": "{host}：还没有看到它的任何 GPU，因此无法给出 CUDA_VISIBLE_DEVICES。",
  "placement.cuda.migUnknown":
    "{host}：MIG 实例的 UUID 未知，因此无法给出 CUDA_VISIBLE_DEVICES；在该主机上运行 nvidia-smi -L 可列出它们。",
};
