--[[
  flow_acquire: reserves permits of a topic's rate limit, cluster-wide (GCRA, the generic cell rate
  algorithm, with reservations). Every call succeeds: it hands out up to n permits in advance and says
  how long the caller waits before using them, so that a throttled consumer arms its timer for that
  instant instead of asking again. Permits a caller reserved and did not use are given back on its next
  call (refund), provided the limit has not changed since they were taken (same generation).
  Without a limit in the hash (no field 'rate') and without the adaptive slow-down it grants n at once
  and writes nothing.

  The adaptive slow-down (lib/adaptive.lua), when the caller passes its settings (ARGV[6..8]) or the hash
  has a.on = 1, counts the outcomes the caller reports and may hold the topic to a rate below the limit
  (or to a rate at all, without a limit); its fields are listed in lib/adaptive.lua.

  KEYS[1]  flow hash       flow{<prefix><topic>}: fields gen (configuration generation, absent: 0),
                           rate (permits per second), burst (bucket size, absent: ceil(rate / 10), at
                           least 1), tat (theoretical arrival time, ms on this node's Redis clock)

  ARGV[1]  n               permits asked for (>= 1); at most burst are granted
  ARGV[2]  refund          permits of the caller's previous reservation it did not use (0: none)
  ARGV[3]  refund gen      the generation the refunded permits were taken under; another one refunds nothing
  ARGV[4]  acked           deliveries the caller committed since its previous call (optional, 0)
  ARGV[5]  failed          deliveries the caller rolled back after a failure since its previous call (optional, 0)
  ARGV[6]  adaptive        '1': the caller runs the adaptive slow-down with ARGV[7..8]; '' or absent: as the
                           hash says (a.on)
  ARGV[7]  threshold       failure ratio above which the rate backs off ('' : the hash's or 0.5)
  ARGV[8]  floor           lowest adaptive rate, permits per second ('': the hash's or ceiling / 100)

  Returns  { gen, granted, waitMs, rate }
           gen           the configuration generation the permits belong to
           granted       permits reserved (n, or burst when n is larger)
           waitMs        ms from now until every granted permit may be used (0: at once)
           rate          the rate permits are granted at, permits per second as text (the limit, or the
                         adaptive rate when lower), '-1' without either
]]
local flowKey   = KEYS[1]
local asked     = tonumber(ARGV[1])
local refund    = tonumber(ARGV[2])
local refundGen = tonumber(ARGV[3])
local acked     = tonumber(ARGV[4] or '0')
local failed    = tonumber(ARGV[5] or '0')
local adaptiveByCaller = ARGV[6] == '1'
-- #include lib/errors.lua: ERRORS, fail(code, detail)
-- #include lib/clock.lua: redisNow()
-- #include lib/adaptive.lua: adapt(flowKey, now, limit, acked, failed, threshold, floor), adaptiveWrite(...)

if not asked or asked < 1 or not refund or refund < 0 or not refundGen or not acked or not failed then
  return fail(ERRORS.BAD_VALUE, 'n=' .. tostring(ARGV[1]) .. ' refund=' .. tostring(ARGV[2])
    .. ' gen=' .. tostring(ARGV[3]))
end
local fields = redis.call('HMGET', flowKey, 'gen', 'rate', 'burst', 'tat', 'a.on')
local gen    = tonumber(fields[1]) or 0
local rate   = tonumber(fields[2])
if rate and rate <= 0 then
  rate = nil
end
local adaptive = adaptiveByCaller or fields[5] == '1'
if not rate and not adaptive then
  return { gen, asked, 0, '-1' }
end
local now      = redisNow()
local state
local slowedDown = false
if adaptive then
  local adaptiveRate
  adaptiveRate, state = adapt(flowKey, now, rate, acked, failed, adaptiveByCaller and tonumber(ARGV[7]) or nil,
    adaptiveByCaller and tonumber(ARGV[8]) or nil)
  if adaptiveRate and (not rate or adaptiveRate < rate) then
    rate, slowedDown = adaptiveRate, true
  end
  if not rate then
    adaptiveWrite(flowKey, now, state, asked)
    return { gen, asked, 0, '-1' }
  end
end
local interval = 1000 / rate
-- slowed down, the limit's bucket would let a burst of the old rate through: a tenth of a second's worth
local burst    = math.max(1, (not slowedDown and tonumber(fields[3])) or math.ceil(rate / 10))
local granted  = math.min(asked, burst)
local tat      = tonumber(fields[4]) or now
if refundGen == gen and refund > 0 then
  tat = math.max(now, tat - refund * interval)
end
local newTat = math.max(tat, now) + granted * interval
-- the granted permits conform once the last of them does: newTat is at most one bucket ahead of the clock
local start = math.max(now, newTat - burst * interval)
redis.call('HSET', flowKey, 'tat', string.format('%.17g', newTat))
if state then
  adaptiveWrite(flowKey, now, state, granted)
end
return { gen, granted, math.ceil(start - now), string.format('%.17g', rate) }
