--[[
  flow_set: sets or removes settings in a topic's flow hash (limits, fair share, weights, priority aging,
  adaptive slow-down; see docs/flow-control.md), from an application's configuration or live from an operator.

  In config mode the configuration only gives the starting value: a field is written when the value
  configured differs from the one configuration last wrote (recorded in 'cfg:<field>'), so that a live
  change made since stands across restarts of applications that did not change their configuration.
  In live mode the fields are written as given. Either way a call that changes something increments the
  generation 'gen' once. A change of 'rate', 'burst' or 'a.on' also restarts the limiter's clock (tat = now):
  permits owed under the old limit are forgotten, and permits reserved under it are not given back.
  Setting 'aging.pace' while no 'aging.epoch' is recorded records the epoch as now (ms); 'aging.epoch' is
  set once: giving another value than the recorded one, or removing it, is refused.

  Every value is checked before anything is written: a refused call changes nothing.

  KEYS[1]  flow hash       flow{<prefix><topic>}

  ARGV[1]  mode            config | live
  ARGV[2k], ARGV[2k+1]     field, value ('': remove the field), k = 1..n; the fields and their values:
           rate, key.rate, a.floor     permits per second, a decimal above 0
           burst                       a whole number of permits, 0 (removes it: flow_acquire.lua's default) or more
           key.burst, key.conc         a whole number, 1 or more
           fair                        on | off | draining
           w:<tenant>, w.default       a weight, a decimal above 0 (the tenant's name is not empty)
           aging.pace                  priority points per ms, a decimal above 0
           aging.epoch                 ms since the Unix epoch, a whole number
           a.on                        1 | 0
           a.threshold                 a failure ratio, a decimal above 0 and below 1

  Returns  { changed, gen, previous_1, ..., previous_n }
           changed       1 when a field changed, else 0
           gen           the generation after the call
           previous_k    config mode: the value configuration last wrote for field k; live mode: the field
                         before the call ('' when absent)
]]
local flowKey = KEYS[1]
local mode    = ARGV[1]
-- #include lib/errors.lua: ERRORS, fail(code, detail)
-- #include lib/clock.lua: redisNow()

local function decimal(v)
  return #v <= 40 and (v:match('^%d+$') or v:match('^%d+%.%d+$') or v:match('^%.%d+$')) ~= nil
end
local function positive(v)
  return decimal(v) and tonumber(v) > 0
end
local function whole(v, min)
  return #v <= 18 and v:match('^%d+$') ~= nil and tonumber(v) >= min
end
local CHECKS = {
  ['rate']        = positive,
  ['key.rate']    = positive,
  ['a.floor']     = positive,
  ['w.default']   = positive,
  ['aging.pace']  = positive,
  ['burst']       = function(v) return whole(v, 0) end,
  ['key.burst']   = function(v) return whole(v, 1) end,
  ['key.conc']    = function(v) return whole(v, 1) end,
  ['aging.epoch'] = function(v) return whole(v, 0) end,
  ['fair']        = function(v) return v == 'on' or v == 'off' or v == 'draining' end,
  ['a.on']        = function(v) return v == '1' or v == '0' end,
  ['a.threshold'] = function(v) return decimal(v) and tonumber(v) > 0 and tonumber(v) < 1 end,
}
local RESTARTS_CLOCK = { ['rate'] = true, ['burst'] = true, ['a.on'] = true }

if mode ~= 'config' and mode ~= 'live' then
  return fail(ERRORS.BAD_SELECTION, 'mode=' .. tostring(mode))
end
local fields, values = {}, {}
for i = 2, #ARGV - 1, 2 do
  local field, value = ARGV[i], ARGV[i + 1]
  local check = CHECKS[field]
  if check == nil and field:sub(1, 2) == 'w:' and #field > 2 then
    check = positive
  end
  if check == nil then
    return fail(ERRORS.BAD_SELECTION, 'field=' .. field)
  end
  if field == 'burst' and value == '0' then
    value = ''
  end
  if value ~= '' and not check(value) then
    return fail(ERRORS.BAD_VALUE, field .. '=' .. value)
  end
  fields[#fields + 1], values[#values + 1] = field, value
end
local epoch = redis.call('HGET', flowKey, 'aging.epoch')
for k = 1, #fields do
  if fields[k] == 'aging.epoch' and epoch and values[k] ~= epoch then
    return fail(ERRORS.BAD_VALUE, 'aging.epoch=' .. values[k] .. ' (set once: ' .. epoch .. ')')
  end
end

local changed, restartClock, agingPaceSet = false, false, false
local previous = {}
for k = 1, #fields do
  local field, value = fields[k], values[k]
  local recorded = mode == 'config' and ('cfg:' .. field) or field
  local before = redis.call('HGET', flowKey, recorded) or ''
  previous[k] = before
  if before ~= value then
    changed = true
    restartClock = restartClock or RESTARTS_CLOCK[field] == true
    if value == '' then
      redis.call('HDEL', flowKey, field)
    else
      redis.call('HSET', flowKey, field, value)
      agingPaceSet = agingPaceSet or field == 'aging.pace'
    end
    if mode == 'config' then
      redis.call('HSET', flowKey, recorded, value)
    end
  end
end
local gen = tonumber(redis.call('HGET', flowKey, 'gen') or '0')
if changed then
  gen = redis.call('HINCRBY', flowKey, 'gen', 1)
  redis.call('HSET', flowKey, 'v', '1')
  if restartClock then
    redis.call('HSET', flowKey, 'tat', tostring(redisNow()))
  end
  if agingPaceSet and redis.call('HEXISTS', flowKey, 'aging.epoch') == 0 then
    redis.call('HSET', flowKey, 'aging.epoch', tostring(math.floor(redisNow())))
  end
end
local reply = { changed and 1 or 0, gen }
for k = 1, #previous do
  reply[k + 2] = previous[k]
end
return reply
