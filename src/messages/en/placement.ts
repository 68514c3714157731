/** Cost-aware placement (`/gpu claim 2 gpus>=40g`) and `--valley` batch work. */
export const placement = {
  "placement.price":
    "The cheapest {count, plural, one {# free GPU} other {# free GPUs}} with at least {floor} GiB: {price, number, moneyCents} per GPU-hour, {total, number, moneyCents} an hour in all.",
  "placement.unpriced":
    "The cheapest {count, plural, one {# free GPU} other {# free GPUs}} with at least {floor} GiB; some have no price (set cost_per_hour or purchase_price under hosts).",
  "placement.short":
    "Only {free} of the {fitting} GPUs with at least {floor} GiB are free now; you asked for {count}.",
  "placement.valley.granted":
    "Batch work in the valley hours ({window}): yours until {end, date, time}, when they end. Electricity at {valley, number, moneyCents} instead of {base, number, moneyCents} per kWh saves {saved, number, moneyCents} an hour.",
  "placement.valley.outside":
    "Batch work (`--valley`) is granted only in the valley hours ({window}), next from {start, date, weekday} {start, date, time}: claim again then. Electricity there is {valley, number, moneyCents} instead of {base, number, moneyCents} per kWh.",
  "placement.valley.none":
    "The tariff has no window cheaper than its base price (costs.electricity.windows), so --valley cannot be granted.",
  "placement.cuda.host": "{host}, all GPUs: {line}",
  "placement.cuda.mig": "{host}, MIG instances: {line}",
  "placement.cuda.hostUnknown":
    "{host}: none of its GPUs have been seen yet, so CUDA_VISIBLE_DEVICES cannot be given.",
  "placement.cuda.migUnknown":
    "{host}: the MIG instances' UUIDs are not known, so CUDA_VISIBLE_DEVICES cannot be given; nvidia-smi -L on the host lists them.",
} as const satisfies Record<string, string>;
