--[[
  flow_acquire: reserves permits of a topic's rate limit, cluster-wide (GCRA, the generic cell rate
  algorithm, with reservations). Every call succeeds: it hands out up to n permits in advance and says
  how long the caller waits before using them, so that a throttled consumer arms its timer for that
  instant instead of asking again. Permits a caller reserved and did not use are given back on its next
  call (refund), provided the limit has not changed since they were taken (same generation).
  Without a limit in the hash (no field 'rate') it grants n at once and writes nothing.

  KEYS[1]  flow hash       flow{<prefix><topic>}: fields gen (configuration generation, absent: 0),
                           rate (permits per second), burst (bucket size, absent: ceil(rate / 10), at
                           least 1), tat (theoretical arrival time, ms on this node's Redis clock)

  ARGV[1]  n               permits asked for (>= 1); at most burst are granted
  ARGV[2]  refund          permits of the caller's previous reservation it did not use (0: none)
  ARGV[3]  refund gen      the generation the refunded permits were taken under; another one refunds nothing

  Returns  { gen, granted, waitMs, rate }
           gen           the configuration generation the permits belong to
           granted       permits reserved (n, or burst when n is larger)
           waitMs        ms from now until every granted permit may be used (0: at once)
           rate          the limit in permits per second as text, '-1' without a limit
]]
local flowKey   = KEYS[1]
local asked     = tonumber(ARGV[1])
local refund    = tonumber(ARGV[2])
local refundGen = tonumber(ARGV[3])
-- #include lib/errors.lua: ERRORS, fail(code, detail)
-- #include lib/clock.lua: redisNow()

if not asked or asked < 1 or not refund or refund < 0 or not refundGen then
  return fail(ERRORS.BAD_VALUE, 'n=' .. tostring(ARGV[1]) .. ' refund=' .. tostring(ARGV[2])
    .. ' gen=' .. tostring(ARGV[3]))
end
local fields = redis.call('HMGET', flowKey, 'gen', 'rate', 'burst', 'tat')
local gen    = tonumber(fields[1]) or 0
local rate   = tonumber(fields[2])
if not rate or rate <= 0 then
  return { gen, asked, 0, '-1' }
end
local now      = redisNow()
local interval = 1000 / rate
local burst    = math.max(1, tonumber(fields[3]) or math.ceil(rate / 10))
local granted  = math.min(asked, burst)
local tat      = tonumber(fields[4]) or now
if refundGen == gen and refund > 0 then
  tat = math.max(now, tat - refund * interval)
end
local newTat = math.max(tat, now) + granted * interval
-- the granted permits conform once the last of them does: newTat is at most one bucket ahead of the clock
local start = math.max(now, newTat - burst * interval)
redis.call('HSET', flowKey, 'tat', string.format('%.17g', newTat))
return { gen, granted, math.ceil(start - now), string.format('%.17g', rate) }
