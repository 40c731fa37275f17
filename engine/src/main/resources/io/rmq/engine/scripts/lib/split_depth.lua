-- The number of split markers, from KEYS[first] on, that exist one after the other (0 when KEYS[first] does not):
-- how many doublings of the topic split this slot, counted along the markers the caller passed.
local function splitDepth(first)
  local depth = 0
  for i = first, #KEYS do
    if redis.call('EXISTS', KEYS[i]) == 0 then break end
    depth = depth + 1
  end
  return depth
end
