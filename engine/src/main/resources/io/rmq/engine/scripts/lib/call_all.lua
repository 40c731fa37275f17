-- Multi-member commands take at most this many arguments after the key: Lua's unpack is bounded.
local CHUNK = 1000

-- Runs `command key items...` over a list of items, in calls of at most CHUNK items: the elements of
-- the replies one after the other when the command replies with an array, the sum of the replies when
-- it replies with an integer. No items: no call, an empty array.
local function callAll(command, key, items)
  if #items == 0 then return {} end
  if #items <= CHUNK then return redis.call(command, key, unpack(items)) end
  local replies, sum, counted = {}, 0, false
  for from = 1, #items, CHUNK do
    local part = redis.call(command, key, unpack(items, from, math.min(from + CHUNK - 1, #items)))
    if type(part) == 'table' then
      for i = 1, #part do replies[#replies + 1] = part[i] end
    else
      sum, counted = sum + part, true
    end
  end
  if counted then return sum end
  return replies
end
